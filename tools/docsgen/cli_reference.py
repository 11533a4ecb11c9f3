"""The CLI reference, generated from the typer app: every command and sub-command, every option with its type,
default and help, read from the click command tree (``typer.main.get_command``), so it cannot drift from
``lingualite COMMAND --help``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tools.docsgen.markdown import MISSING, banner, table

PATH = "docs/reference/cli.md"
TYPES = {"int": "integer", "float": "number", "str": "text", "Path": "path", "bool": "flag"}


def _tree() -> Any:
    import typer

    from lingualite.cli.main import app

    return typer.main.get_command(app)


def _commands(command: Any, path: tuple[str, ...]) -> list[tuple[tuple[str, ...], Any]]:
    """Every command below ``command``, depth first, sub-commands in name order; hidden ones left out."""
    found = [(path, command)]
    for name in sorted(getattr(command, "commands", {}) or {}):
        sub = command.commands[name]
        if not sub.hidden:
            found += _commands(sub, (*path, name))
    return found


CODE_LINE = re.compile(r"^(lingualite|curl|python|torchrun|[A-Z_]+=)")


def _escape(text: str) -> str:
    """Markdown-safe prose: ``<`` outside code spans escaped (``src<TAB>tgt`` is not an HTML tag)."""
    parts = text.split("`")
    return "`".join(p if i % 2 else p.replace("<", "&lt;") for i, p in enumerate(parts))


def _plain(text: str | None) -> str:
    """One line of help (an option's): rich's escaped brackets unescaped, whitespace collapsed."""
    return _escape(" ".join(re.sub(r"\\\[", "[", (text or "").replace("\b", "")).split()))


def _continues(line: str, previous: str) -> bool:
    """An indented line, or a line after one that did not end a sentence, continues the line above."""
    if line.startswith(" "):
        return True
    return not previous.endswith((".", ":", ";"))


def _layout(paragraph: str) -> list[str]:
    """A click ``\\b`` paragraph (kept as written): indented commands become a console block, lines that
    continue a sentence join it, and every other line is its own paragraph."""
    items: list[tuple[str, str]] = []
    for line in paragraph.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if line.startswith(" ") and CODE_LINE.match(stripped):
            items.append(("code", stripped))
        elif items and items[-1][0] == "text" and _continues(line, items[-1][1]):
            items[-1] = ("text", f"{items[-1][1]} {stripped}")
        else:
            items.append(("text", stripped))
    lines: list[str] = []
    for i, (kind, text) in enumerate(items):
        if kind == "code":
            if i == 0 or items[i - 1][0] != "code":
                lines += ["```console"]
            lines.append(text)
            if i == len(items) - 1 or items[i + 1][0] != "code":
                lines += ["```", ""]
        else:
            lines += [_plain(text), ""]
    return lines


def _help_markdown(text: str | None) -> list[str]:
    """A command's help as Markdown: paragraphs rewrapped, ``\\b`` paragraphs laid out as written."""
    lines: list[str] = []
    for paragraph in re.split(r"\n\s*\n", (text or "").strip()):
        if paragraph.lstrip("\n").startswith("\b"):
            lines += _layout(paragraph.lstrip("\n")[1:])
        elif paragraph.strip():
            lines += [_plain(paragraph), ""]
    return lines


def _type(param: Any) -> str:
    bare = param.bare_type()
    inner = bare[5:-1] if bare.startswith("list[") else bare
    words = TYPES.get(inner, inner)
    if param.param_type_name == "argument" and param.nargs == -1:
        words = f"{words}, one or more" if param.required else f"{words}, any number"
    elif getattr(param, "multiple", False):
        words += ", repeatable"
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None and high is not None:
        words += f", {low} to {high}"
    elif low is not None:
        words += f", ≥ {low}"
    elif high is not None:
        words += f", ≤ {high}"
    return words


def _default(param: Any) -> str:
    if param.required:
        return "required"
    value = param.default
    if getattr(param, "is_flag", False):
        if param.secondary_opts:
            return f"`{param.opts[0] if value else param.secondary_opts[0]}`"
        return "off" if not value else "on"
    if value is None or value == () or value == []:
        return MISSING
    if isinstance(value, Path):
        value = value.as_posix()
    return f"`{value}`"


def _names(param: Any) -> str:
    if param.param_type_name == "argument":
        return f"`{param.name.upper()}`"
    names = " / ".join(f"`{o}`" for o in [*param.opts, *param.secondary_opts])
    return names


def _help(param: Any) -> str:
    text = _plain(getattr(param, "help", None))
    if param.envvar:
        text += f" (environment variable: `{param.envvar}`)"
    return text


def _usage(path: tuple[str, ...], command: Any) -> str:
    args = []
    for p in command.params:
        if p.param_type_name == "argument" and not p.hidden:
            name = p.name.upper() + ("..." if p.nargs == -1 else "")
            args.append(name if p.required else f"[{name}]")
    tail = " COMMAND" if getattr(command, "commands", None) else ""
    return " ".join([*path, "[OPTIONS]", *args]) + tail


def _section(path: tuple[str, ...], command: Any) -> list[str]:
    name = " ".join(path)
    lines = [f"## `{name}`", "", *_help_markdown(command.help or command.short_help)]
    lines += ["```console", _usage(path, command), "```", ""]
    subs = [n for n in sorted(getattr(command, "commands", {}) or {}) if not command.commands[n].hidden]
    if subs:
        lines += ["Sub-commands: " + ", ".join(f"[`{n}`](#{_anchor((*path, n))})" for n in subs) + ".", ""]
    params = [p for p in command.params if not p.hidden]
    if params:
        rows = [(_names(p), _type(p), _default(p), _help(p)) for p in params]
        lines += table(("option", "type", "default", "what it does"), rows) + [""]
    return lines


def _anchor(path: tuple[str, ...]) -> str:
    """The id mkdocs' toc extension gives the heading ``lingualite eval xsr`` (code span, spaces to dashes)."""
    return "-".join(path).lower()


def render() -> str:
    commands = _commands(_tree(), ("lingualite",))
    lines = [
        banner("the typer app `lingualite.cli.main.app`"),
        "",
        "# Command line reference",
        "",
        "Every command and option of `lingualite`, read from the program itself. `lingualite COMMAND --help` "
        "prints the same; every command that prints results takes `--json` for one JSON object instead of "
        "tables; `python -m lingualite` works too.",
        "",
    ]
    lines += [f"- [`{' '.join(p)}`](#{_anchor(p)})" for p, _ in commands[1:]] + [""]
    for path, command in commands:
        lines += _section(path, command)
    return "\n".join(lines).rstrip() + "\n"


def pages() -> dict[str, str]:
    return {PATH: render()}
