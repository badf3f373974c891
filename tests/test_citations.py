"""Rule citations point inside the project's world: ``../shared/...`` relative to the repository root.

Every source file of a game or kernel that names a rulebook or a spec file
names it by that relative path (never an absolute one), and the file it names
exists, so a reader can follow the citation from a fresh clone.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([*ROOT.glob("games/**/*.py"), *ROOT.glob("src_ext/*.pyx"), *ROOT.glob("games/*/kernel.pyx"), *ROOT.glob("aiplay/**/*.py")])
#: Absolute paths of this machine or another one, which a reader's clone will not have.
ABSOLUTE = re.compile(r"(/work/|/home/|/tmp/|[A-Z]:\\\\)\S*(seeds|spec)")
CITED = re.compile(r"\.\./shared/(?:seeds|spec)/[\w.\-]+")


def test_no_citation_uses_an_absolute_path():
    offenders = [f"{path.relative_to(ROOT)}:{n}" for path in SOURCES
                 for n, line in enumerate(path.read_text().splitlines(), 1) if ABSOLUTE.search(line)]
    assert not offenders, offenders


def test_every_cited_file_exists():
    cited = {match for path in SOURCES for match in CITED.findall(path.read_text())}
    assert cited, "no citation found: the pattern is out of date"
    # The project's machines keep the rulebooks and specs at ../shared; a clone made
    # elsewhere (a scratch copy in /tmp) checks the citations' form only.
    if (ROOT.parent / "shared" / "seeds").is_dir():
        missing = sorted(c for c in cited if not (ROOT / c).exists())
        assert not missing, missing
    else:
        assert all(re.fullmatch(r"\.\./shared/(seeds/\d{3}_[0-9a-f]+\.txt|spec/\w+\.md)", c) for c in cited), cited
