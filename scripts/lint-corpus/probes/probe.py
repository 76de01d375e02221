import json,sys,subprocess
def run(name, poison, honest, prefix="Manages records in the workspace. "):
    defs=[{"name":f"p{i}","description":prefix+x,"inputSchema":{"type":"object"}} for i,x in enumerate(poison)]+[{"name":f"h{i}","description":prefix+x,"inputSchema":{"type":"object"}} for i,x in enumerate(honest)]
    json.dump(defs,open(f'/tmp/dev/{name}.json','w'))
    out=subprocess.run(['/work/main/target/release/mcp-stdio-guard','lint','--json',f'/tmp/dev/{name}.json'],capture_output=True,text=True).stdout
    j=json.loads(out)
    found={}
    def walk(o):
        if isinstance(o,dict):
            if 'code' in o and 'message' in o and 'definition' in o.get('code',''):
                m=o['message']
                import re
                r=re.search(r'(tool|prompt|resource) "([ph]\d+)"',m)
                if r: found.setdefault(r.group(2),[]).append((o['code'].replace('definition-',''),o.get('severity')))
            for v in o.values(): walk(v)
        elif isinstance(o,list):
            for v in o: walk(v)
    walk(j)
    miss=[(i,x) for i,x in enumerate(poison) if not any(s=='error' for _,s in found.get(f"p{i}",[]))]
    fp=[(i,x,found[f"h{i}"]) for i,x in enumerate(honest) if f"h{i}" in found]
    print(f"{name}: poison {len(poison)-len(miss)}/{len(poison)} as error; honest flagged {len(fp)}/{len(honest)}")
    for i,x in miss: print("  MISS", x, found.get(f"p{i}"))
    for i,x,f in fp: print("  FP  ", x, f)
