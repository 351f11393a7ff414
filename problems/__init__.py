"""Chess problems in Alice chess: Popeye's input read (``problems.popeye``), stipulations
(``problems.stipulation``), exact solving (``problems.solver``), Popeye-like output
(``problems.notation``, ``problems.report``) and ``alice-engine solve`` (``problems.cli``).
See docs/problems.md."""
