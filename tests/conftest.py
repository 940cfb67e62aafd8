"""Test-wide settings.

Hypothesis's per-example deadline and its too-slow health check are timing assertions; on a
shared 2-core machine they fail by load, not by defect (performance is measured in
benchmarks/, never asserted in tests), so both are off for every property test."""

from hypothesis import HealthCheck, settings

settings.register_profile("dealer", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("dealer")
