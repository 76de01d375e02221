"""Helpers of a server: every stdout write here can move to stderr.

print("a call in a docstring is text")
"""
from __future__ import annotations

import json

import click


def greet(name):
    print("hello", name)
    print()
    print("a", "b", sep=",",)
    print(
        "several",
        "lines"
    )
    click.echo(json.dumps({"name": name}))
    click.echo("x", nl=False)
    note = 'print("in a string")'  # print("in a comment")
    return note
