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



class RequestFieldsTest(unittest.TestCase):
    """Each request's fields are the generated TypedDict's (api_types): the methods take the common ones as
    keyword arguments of their own, and any other field of the request by its snake_case name."""

    def test_every_request_field_reaches_its_method(self) -> None:
        import inspect

        from authsvc import api_types
        from authsvc.client import Client, more_fields

        def snake(key: str) -> str:
            return re.sub(r"(?<!^)([A-Z])", lambda m: "_" + m.group(1).lower(), key)

        for method, request in [
            (Client.login, api_types.LoginRequest),
            (Client.signup, api_types.SignupRequest),
            (Client.refresh, api_types.RefreshRequest),
        ]:
            parameters = inspect.signature(method).parameters
            self.assertIn("fields", parameters)
            for key in set(request.__required_keys__) | set(request.__optional_keys__):
                with self.subTest(method=method.__name__, key=key):
                    if snake(key) not in parameters:
                        self.assertEqual(more_fields(request, {snake(key): 1}, method.__name__), {key: 1})

    def test_a_field_the_method_does_not_name_goes_by_its_snake_case_name(self) -> None:
        from authsvc import api_types
        from authsvc.client import more_fields

        self.assertEqual(
            more_fields(api_types.LoginRequest, {"use_cache": False, "region": None}, "login"), {"useCache": False}
        )
        with self.assertRaisesRegex(TypeError, "unexpected keyword argument 'use_cash'"):
            more_fields(api_types.LoginRequest, {"use_cash": False}, "login")
