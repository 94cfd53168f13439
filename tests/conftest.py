"""Settings for the whole test suite."""
import os

import pytest

# The overview draws its model map for every text only while the server has at most
# GLASSBOX_MAP_SESSIONS sessions (models/limits.py). A test run keeps many AppTest and
# browser sessions alive at once; the tests of the map's on-request mode set the count
# they need themselves (tests/app/test_model_map.py).
os.environ.setdefault("GLASSBOX_MAP_SESSIONS", "1000")

# Class mode's store (server/classroom.py): a throw-away SQLite file for this run, never
# the user's cache folder. The e2e servers inherit it, so a browser test's teacher and
# students share it with the test itself.
# Under pytest-xdist (`make test` runs two workers) each worker makes its own: a worker
# inherits the environment of the process that started it, file and all.
if "GLASSBOX_CLASS_DB" not in os.environ or os.environ.get("PYTEST_XDIST_WORKER"):
    import tempfile

    os.environ["GLASSBOX_CLASS_DB"] = os.path.join(tempfile.mkdtemp(prefix="glassbox-classes-"), "classes.sqlite3")


def pytest_collection_modifyitems(config, items):
    """Which tests run on one pytest-xdist worker, in file order (`make test` runs
    `--dist loadgroup`): each test file stays together (its module fixtures, a browser
    test's extra server, start once), and the fuzz suite is one group, since it measures
    the memory of its process door after door and writes one report
    (tests/fuzz/conftest.py). Without xdist the marks change nothing."""
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        group = "fuzz" if path.startswith("tests/fuzz/") else path
        item.add_marker(pytest.mark.xdist_group(group))
