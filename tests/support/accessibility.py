"""What the accessibility tests ask of axe-core (WCAG 2.1 A and AA) and count as a failure
(a serious or critical violation), in each theme; the sizes are the devices' (`VIEWPORTS`)."""

from __future__ import annotations

THEMES = ("light", "dark")
WCAG = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    # Every node only of a violation; of the rules that passed (or could not tell) axe
    # still names each, with one node: what the tests count as checked.
    "resultTypes": ["violations"],
}
SERIOUS = ("serious", "critical")
