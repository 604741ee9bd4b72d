"""URL rules whose builders are made on first use.

werkzeug makes two Python functions for every rule when the rule is added (an AST, then
`compile()`): the builders `url_for` calls. At ~0.75 ms a rule, the app's 457 rules took 0.35 s of
every start (issue 46, footprint), though matching a request never needs them and most rules are
never built into a URL. Here each builder is made by werkzeug's own code at its rule's first
`url_for`, and kept."""

from __future__ import annotations

from werkzeug.routing import Rule


class LazilyBuiltRule(Rule):
    def _compile_builder(self, append_unknown: bool = True):
        made = []  # werkzeug's builder, once made (two threads may both make it: either serves)

        def build(rule: Rule, **values):
            if not made:
                made.append(Rule._compile_builder(rule, append_unknown))
            return made[0](rule, **values)

        return build
