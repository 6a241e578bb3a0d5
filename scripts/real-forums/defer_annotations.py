"""Makes FlaskBB 2.2.0 importable on Python 3.12 and 3.13.

FlaskBB 2.2.0 names types in annotations that it imports only under TYPE_CHECKING, which works
only where annotations are evaluated lazily (Python 3.14). Adding `from __future__ import
annotations` to each of its modules gives the same lazy behaviour on older interpreters without
touching any statement of the engine. Idempotent.

usage: defer_annotations.py PACKAGE_DIR...
"""

import ast
import pathlib
import sys

FUTURE = "from __future__ import annotations\n"

changed = 0
for directory in sys.argv[1:]:
    for path in sorted(pathlib.Path(directory).rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if FUTURE.strip() in source:
            continue
        tree = ast.parse(source)
        # A future import must come first, after the module docstring if there is one.
        insert_at = 0
        if tree.body and isinstance(tree.body[0], ast.Expr) \
                and isinstance(tree.body[0].value, ast.Constant) \
                and isinstance(tree.body[0].value.value, str):
            insert_at = tree.body[0].end_lineno
        lines = source.splitlines(keepends=True)
        lines.insert(insert_at, FUTURE)
        path.write_text("".join(lines), encoding="utf-8")
        changed += 1
print(f"deferred annotations in {changed} files")
