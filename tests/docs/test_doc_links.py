"""The README and docs/ stand on their own: every relative link resolves inside the repository,
and no page sends its reader to a file the repository does not hold."""

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
# [text](target) and ![alt](target); the target up to a space (a title may follow) or ")"
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
# Outside the repository: the project's private design notes and rulebooks. Name a rulebook by
# its title instead.
OUTSIDE = re.compile(r"DESIGN\.md|shared/seeds")


def links(page):
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)  # code blocks
    return LINK.findall(text)


def relative(target):
    return not re.match(r"[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_inside_the_repository(page):
    broken = []
    for target in filter(relative, links(page)):
        path = (page.parent / unquote(target.split("#")[0])).resolve()
        if not path.is_relative_to(ROOT) or not path.exists():
            broken.append(target)
    assert broken == []


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_names_a_file_outside_the_repository(page):
    assert OUTSIDE.findall(page.read_text(encoding="utf-8")) == []


def test_the_link_check_sees_a_broken_link(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("[fine](page.md) [gone](nothing.md) [web](https://example.org) [here](#top)\n"
                    "```\n[in code](not-a-link.md)\n```\n")
    assert [t for t in filter(relative, links(page))
            if not (page.parent / t).exists()] == ["nothing.md"]


def test_the_pages_are_found():
    assert len(PAGES) > 10 and (ROOT / "docs" / "architecture.md") in PAGES
