"""Every float option of every command refuses NaN and infinities: one patch on typer's parameter classes."""

from __future__ import annotations

from typing import Any

__all__ = ["finite_float_options", "takes_floats"]


def takes_floats(param: Any) -> bool:
    """Whether a typer option's annotation is ``float`` (or ``float | None``, a list of floats...)."""
    import typing

    annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    seen, stack = set(), [annotation]
    while stack:
        item = stack.pop()
        if item is float:
            return True
        if id(item) not in seen:
            seen.add(id(item))
            stack.extend(typing.get_args(item))
    return False


def finite_float_options() -> None:
    """Refuse NaN and infinities (``nan``, ``inf``, ``1e999``) in every float option of every command, as
    a usage error naming the option, before any range check: Python's ``float`` accepts them, and NaN
    passes ``min=0``. Patched once here on typer's parameter class, for every command."""
    import math

    from typer import BadParameter
    from typer.core import TyperArgument, TyperOption

    for cls in (TyperOption, TyperArgument):
        process = cls.process_value
        if getattr(process, "finite_only", False):
            continue

        def finite(self: Any, ctx: Any, value: Any, process: Any = process) -> Any:
            if takes_floats(self):
                for item in value if isinstance(value, list | tuple) else [value]:
                    try:
                        number = float(item) if isinstance(item, str | float) else None
                    except ValueError:
                        continue  # not a number: the type's own message
                    if number is not None and not math.isfinite(number):
                        raise BadParameter(f"{item!r} is not a finite number", ctx=ctx, param=self)
            return process(self, ctx, value)

        finite.finite_only = True  # type: ignore[attr-defined]
        cls.process_value = finite  # type: ignore[method-assign]
