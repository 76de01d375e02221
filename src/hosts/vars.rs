//! A host's variables in a server's strings, resolved as that host resolves
//! them (`${VAR}` and `${VAR:-default}` for Claude Code, `${env:VAR}`,
//! `${userHome}`, `${workspaceFolder}` and `${input:ID}` for the editors,
//! `$VAR` for Gemini CLI, `${{ secrets.NAME }}` for Continue). What cannot
//! be resolved without the user (an input prompt, an unset variable, a
//! secret store) is named in `needs`, never guessed. Pure.

use super::places::Vars;

/// What expansion reads.
pub struct Context<'a> {
    pub var: &'a dyn Fn(&str) -> Option<String>,
    pub home: Option<&'a str>,
    /// The workspace a project file belongs to; `None` for a user file.
    pub workspace: Option<&'a str>,
}

impl std::fmt::Debug for Context<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Context")
            .field("workspace", &self.workspace)
            .finish_non_exhaustive()
    }
}

/// `text` with the host's variables resolved; what is missing is added to
/// `needs` (once each) and left as written.
pub fn expand(text: &str, vars: Vars, cx: &Context, needs: &mut Vec<String>) -> String {
    match vars {
        Vars::None => text.to_string(),
        Vars::Continue => continue_vars(text, needs),
        _ => braces(text, vars, cx, needs),
    }
}

fn need(needs: &mut Vec<String>, what: String) {
    if !needs.contains(&what) {
        needs.push(what);
    }
}

/// `${…}` (and for Gemini bare `$NAME`).
fn braces(text: &str, vars: Vars, cx: &Context, needs: &mut Vec<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(inner) = after.strip_prefix('{')
            && let Some(end) = inner.find('}')
        {
            let name = &inner[..end];
            match resolve(name, vars, cx) {
                Ok(v) => out.push_str(&v),
                Err(missing) => {
                    need(needs, missing);
                    out.push_str(&rest[at..at + end + 3]);
                }
            }
            rest = &inner[end + 1..];
            continue;
        }
        let bare: usize = after
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count();
        if vars == Vars::Dollar && bare > 0 && !after.as_bytes()[0].is_ascii_digit() {
            let name = &after[..bare];
            match (cx.var)(name) {
                Some(v) => out.push_str(&v),
                None => {
                    need(needs, format!("{name} is not set"));
                    out.push('$');
                    out.push_str(name);
                }
            }
            rest = &after[bare..];
            continue;
        }
        out.push('$');
        rest = after;
    }
    out.push_str(rest);
    out
}

/// One `${name}`: its value, or what is missing.
fn resolve(name: &str, vars: Vars, cx: &Context) -> Result<String, String> {
    let env = |n: &str| (cx.var)(n).ok_or_else(|| format!("{n} is not set"));
    match vars {
        Vars::Shell => match name.split_once(":-") {
            Some((n, default)) => Ok((cx.var)(n).unwrap_or_else(|| default.to_string())),
            None if is_name(name) => env(name),
            None => Err(format!("${{{name}}} is not a variable Claude Code reads")),
        },
        Vars::Dollar if is_name(name) => env(name),
        Vars::Editor => {
            if let Some(n) = name.strip_prefix("env:") {
                return env(n);
            }
            if let Some(id) = name.strip_prefix("input:") {
                return Err(format!("input '{id}' (the host asks the user for it)"));
            }
            let workspace = || {
                cx.workspace
                    .map(String::from)
                    .ok_or_else(|| "a workspace folder (a user file has none)".to_string())
            };
            match name {
                "userHome" => cx
                    .home
                    .map(String::from)
                    .ok_or_else(|| "a home directory".into()),
                "workspaceFolder" => workspace(),
                "workspaceFolderBasename" => workspace().map(|w| {
                    let w = w.trim_end_matches(['/', '\\']);
                    w.rsplit(['/', '\\']).next().unwrap_or(w).to_string()
                }),
                "pathSeparator" | "/" => Ok(std::path::MAIN_SEPARATOR.to_string()),
                _ => Err(format!("${{{name}}} (resolved by the editor only)")),
            }
        }
        _ => Err(format!("${{{name}}} (not a variable this host reads)")),
    }
}

fn is_name(name: &str) -> bool {
    !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Continue's `${{ secrets.NAME }}` and `${{ inputs.NAME }}`: kept in its
/// hub or asked for, never on this machine's disk.
fn continue_vars(text: &str, needs: &mut Vec<String>) -> String {
    let mut rest = text;
    while let Some(at) = rest.find("${{") {
        let Some(end) = rest[at..].find("}}") else {
            break;
        };
        let inner = rest[at + 3..at + end].trim();
        need(needs, format!("{inner} (a Continue secret or input)"));
        rest = &rest[at + end + 2..];
    }
    text.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, vars: Vars, workspace: Option<&str>) -> (String, Vec<String>) {
        let var = |n: &str| (n == "TOKEN").then(|| "t0k".to_string());
        let cx = Context {
            var: &var,
            home: Some("/home/u"),
            workspace,
        };
        let mut needs = Vec::new();
        (expand(text, vars, &cx, &mut needs), needs)
    }

    #[test]
    fn each_host_resolves_its_own_syntax() {
        assert_eq!(
            run("a-${TOKEN}-${NOPE:-dflt}", Vars::Shell, None).0,
            "a-t0k-dflt"
        );
        assert_eq!(
            run(
                "${env:TOKEN} ${userHome}/x ${workspaceFolder}",
                Vars::Editor,
                Some("/p")
            )
            .0,
            "t0k /home/u/x /p"
        );
        assert_eq!(
            run("$TOKEN and ${TOKEN}", Vars::Dollar, None).0,
            "t0k and t0k"
        );
        assert_eq!(run("${TOKEN} $5", Vars::None, None).0, "${TOKEN} $5");
        assert_eq!(
            run("cost $5", Vars::Dollar, None),
            ("cost $5".into(), vec![])
        );
    }

    #[test]
    fn what_needs_the_user_is_named_and_left_as_written() {
        let (text, needs) = run(
            "${input:api-key} ${env:MISSING} ${workspaceFolder}",
            Vars::Editor,
            None,
        );
        assert_eq!(text, "${input:api-key} ${env:MISSING} ${workspaceFolder}");
        assert_eq!(
            needs,
            [
                "input 'api-key' (the host asks the user for it)",
                "MISSING is not set",
                "a workspace folder (a user file has none)"
            ]
        );
        assert_eq!(run("${UNSET}", Vars::Shell, None).1, ["UNSET is not set"]);
        assert_eq!(
            run("${{ secrets.KEY }}", Vars::Continue, None).1,
            ["secrets.KEY (a Continue secret or input)"]
        );
    }
}
