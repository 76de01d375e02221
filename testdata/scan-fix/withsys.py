import sys


def report(rows):
    sys.stdout.write("rows: %d\n" % len(rows))
    print("explicit", file=sys.stdout)
    print(*rows, end="")
