"""Command line for lesson files: check one before a class, or print the step kinds.

    python -m ui.lessons check my-lesson.toml [more.toml ...]
    python -m ui.lessons kinds            # the step-kind reference of docs/lessons.md (markdown)

`check` reads each file as the Lessons page does (lab/lessons.py against the registered
kinds) and prints either a summary or the error naming the field and line; the exit status
is 1 when a file has an error. Nothing in a file is executed.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def kinds_markdown() -> str:
    """Every registered step kind as a markdown table (parameters with their defaults, the
    facts a notice may name, the question it can ask, the architectures it needs)."""
    from ui.lessons import KINDS

    rows = ["| kind | parameters (default) | facts a notice may name | question | models |",
            "| --- | --- | --- | --- | --- |"]
    for name in sorted(KINDS):
        spec = KINDS[name].spec
        params = ", ".join(
            f"`{p.name}`: {p.type}" + (f" ({'/'.join(p.choices)})" if p.choices else "") + f" = `{p.default}`"
            for p in spec.params) or "–"
        facts = ", ".join(f"`{f}` ({t})" for f, t in spec.facts.items()) or "–"
        question = {None: "–", "token": "token"}.get(spec.question, f"choice: {', '.join(spec.options)}")
        rows.append(f"| `{name}` | {params} | {facts} | {question} | {', '.join(spec.archs) or 'any'} |")
    return "\n".join(rows)


def check(paths: list[str]) -> int:
    import lab.lessons
    from ui.lessons import specs

    status = 0
    for path in paths:
        try:
            lesson = lab.lessons.load_file(Path(path), specs())
        except lab.lessons.LessonError as e:
            print(f"{path}: {e}")
            status = 1
        except OSError as e:
            print(f"{path}: cannot be read ({e.strerror})")
            status = 1
        else:
            asks = sum(1 for s in lesson.steps if s.ask)
            print(f"{path}: lesson {lesson.id!r}, {len(lesson.steps)} steps ({asks} with a question), "
                  f"written for {lesson.model}, runs on {', '.join(lesson.archs) or 'any model'}")
    return status


def main(argv: list[str] | None = None) -> int:
    import logging

    logging.getLogger("streamlit").setLevel(logging.ERROR)     # "no runtime" notes of the cached views
    parser = argparse.ArgumentParser(prog="python -m ui.lessons", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="check lesson files")
    c.add_argument("files", nargs="+")
    sub.add_parser("kinds", help="print the step kinds as a markdown table")
    args = parser.parse_args(argv)
    if args.command == "kinds":
        print(kinds_markdown())
        return 0
    return check(args.files)


if __name__ == "__main__":
    sys.exit(main())
