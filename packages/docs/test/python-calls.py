# Reads the Python samples, [{"name": ..., "source": ...}] as JSON on stdin, and prints for each
# whether Python parses it and, if it does, every call of a method reached from `client.` with its
# arguments' values: python-samples.test.ts compares them with the description's examples. One
# process for every sample, started by the test; only the standard library is needed.
import ast
import json
import sys


def dotted(node):
    """"client.cloud.tasks.get" for that attribute chain, None for any other expression."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def value(node, source):
    """The literal's value, or {"expression": its source} for a name or any other expression."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        return {"expression": ast.get_source_segment(source, node)}


def calls(tree, source):
    found = []
    for node in ast.walk(tree):
        name = dotted(node.func) if isinstance(node, ast.Call) else None
        if name and name.startswith("client."):
            found.append({
                "method": name[len("client."):],
                "args": [value(a, source) for a in node.args],
                "keywords": {k.arg: value(k.value, source) for k in node.keywords},
            })
    return found


results = []
for sample in json.load(sys.stdin):
    try:
        tree = ast.parse(sample["source"], filename=sample["name"])
    except SyntaxError as error:
        results.append({"name": sample["name"], "error": f"line {error.lineno}: {error.msg}"})
        continue
    results.append({"name": sample["name"], "calls": calls(tree, sample["source"])})
json.dump(results, sys.stdout)
