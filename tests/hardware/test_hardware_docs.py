"""The hardware docs are generated from the profiles; a stale one fails here.

Regenerate with `cheeseboard profile docs` after changing a profile.
"""

import copy
import xml.dom.minidom

from cheeseboard import cli, paths
from cheeseboard.profiles import docs as hardware_docs
from cheeseboard.profiles import hardware

PROFILES = [paths.load_profile(n) for n in paths.profile_names()]


def test_the_committed_docs_are_up_to_date():
    stale = hardware.stale_docs()
    assert stale == [], "out of date (run `cheeseboard profile docs`): %s" % stale


def test_every_profile_has_its_diagrams_and_bom_rows():
    docs = hardware.generated_docs()
    for p in PROFILES:
        for kind in ("wiring", "layout"):
            svg = docs["diagrams/%s-%s.svg" % (p["name"], kind)]
            xml.dom.minidom.parseString(svg)  # well-formed
        assert "(`%s`)" % p["name"] in docs["bom.md"]
        assert "diagrams/%s-wiring.svg" % p["name"] in docs["README.md"]
    layout = docs["diagrams/pico-layout.svg"]
    assert ">m3</text>" in layout and ">a1</text>" in layout and ">status</text>" in layout
    assert ">63</text>" in layout  # every LED number is drawn


def test_a_changed_profile_changes_the_docs():
    before = hardware_docs.render_all(PROFILES)
    changed = copy.deepcopy(PROFILES)
    pico = next(p for p in changed if p["name"] == "pico")
    pico["buttons"]["roll"] = 15
    after = hardware_docs.render_all(changed)
    assert after["diagrams/pico-wiring.svg"] != before["diagrams/pico-wiring.svg"]
    assert "GP15" in after["README.md"] and "GP15" not in before["README.md"]


def test_profile_docs_writes_them_and_then_they_are_current(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    assert len(hardware.stale_docs()) == len(hardware.generated_docs())  # nothing there yet
    assert cli.main(["profile", "docs"]) == 0
    assert "wrote hardware/README.md" in capsys.readouterr().out
    assert hardware.stale_docs() == []
    (tmp_path / "hardware/bom.md").write_text("edited by hand\n")
    assert hardware.stale_docs() == ["bom.md"]
