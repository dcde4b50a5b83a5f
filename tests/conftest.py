"""Settings every test shares."""

from __future__ import annotations

from hypothesis import settings

# No verdict may depend on timing: numpy work and a busy machine (pytest -n) make hypothesis's
# per-example deadline fail good code at random. Tests' own @settings inherit this profile.
settings.register_profile("teocalli", deadline=None)
settings.load_profile("teocalli")
