"""Every public name of the package documents itself, as the API reference (python/docs.sh,
pdoc) and editors show it."""

import importlib
import inspect
from typing import List

import pytest

MODULES = ["ringside", "ringside.pettingzoo", "ringside.gymnasium"]


def undocumented(module_name: str) -> List[str]:
    module = importlib.import_module(module_name)
    missing = [] if inspect.getdoc(module) else [module_name]
    for name in module.__all__:
        item = getattr(module, name)
        if not (inspect.isclass(item) or inspect.isfunction(item)):
            continue
        if not (item.__doc__ or "").strip():
            missing.append(f"{module_name}.{name}")
        if inspect.isclass(item):
            for attr, member in vars(item).items():
                if attr.startswith("_") or not callable(member) and not isinstance(member, property):
                    continue
                if not (getattr(member, "__doc__", None) or "").strip():
                    missing.append(f"{module_name}.{name}.{attr}")
    return missing


@pytest.mark.parametrize("module_name", MODULES)
def test_every_public_class_function_and_method_has_a_docstring(module_name: str) -> None:
    pytest.importorskip("pettingzoo")
    assert undocumented(module_name) == []
