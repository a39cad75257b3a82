"""Shared test settings: hypothesis profiles.

``default`` keeps property tests quick for ``make test``; ``ci`` runs more
examples.  Pick one with ``HYPOTHESIS_PROFILE=ci`` (or pytest's
``--hypothesis-profile ci``).
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
