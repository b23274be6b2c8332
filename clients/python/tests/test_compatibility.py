"""The package must run on Python 3.9 (the oldest we support) although CI runs Debian's 3.11, and must
stay in step with the service's error table."""

from __future__ import annotations

import ast
import os
import re
import unittest

from authsvc.errors import ERROR_STATUS

HERE = os.path.dirname(os.path.abspath(__file__))
CLIENT = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(CLIENT))


def python_files(*roots: str):
    for root in roots:
        for folder, _, files in os.walk(root):
            for name in files:
                if name.endswith(".py"):
                    yield os.path.join(folder, name)


class Python39Test(unittest.TestCase):
    def test_every_file_parses_with_python_3_9_grammar(self) -> None:
        roots = [os.path.join(CLIENT, "src"), HERE, os.path.join(REPO, "examples", "python")]
        files = list(python_files(*roots))
        self.assertGreater(len(files), 10)
        for path in files:
            with self.subTest(path=os.path.relpath(path, REPO)), open(path, encoding="utf-8") as f:
                ast.parse(f.read(), filename=path, feature_version=(3, 9))

    def test_annotations_are_never_evaluated_at_import(self) -> None:
        # `X | None` and `dict[str, ...]` in annotations are fine on 3.9 only when they stay strings.
        for path in python_files(os.path.join(CLIENT, "src")):
            with self.subTest(path=os.path.basename(path)), open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
            if not tree.body or os.path.getsize(path) == 0:
                continue
            futures = [n for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "__future__"]
            self.assertTrue(any(a.name == "annotations" for n in futures for a in n.names))

    def test_no_3_10_apis_outside_annotations(self) -> None:
        banned = re.compile(r"\b(zip\([^)]*strict=|aiter\(|anext\(|int\.bit_count|TypeAlias|ParamSpec|kw_only=|slots=True)")
        for path in python_files(os.path.join(CLIENT, "src")):
            with open(path, encoding="utf-8") as f:
                self.assertIsNone(banned.search(f.read()), path)


class ErrorTableTest(unittest.TestCase):
    def test_every_code_of_the_service_has_its_status(self) -> None:
        source = os.path.join(REPO, "packages", "contracts", "src", "error-codes.ts")
        if not os.path.exists(source):
            self.skipTest("not in the authsvc repository")
        with open(source, encoding="utf-8") as f:
            table = dict((code, int(status)) for code, status in re.findall(r"^  (\w+): \{\s*status: (\d+)", f.read(), re.M))
        self.assertGreater(len(table), 20)
        self.assertEqual(ERROR_STATUS, table)


if __name__ == "__main__":
    unittest.main()
