"""Settings for the whole test suite."""
import os

# The overview draws its model map for every text only while the server has at most
# GLASSBOX_MAP_SESSIONS sessions (models/limits.py). A test run keeps many AppTest and
# browser sessions alive at once; the tests of the map's on-request mode set the count
# they need themselves (tests/app/test_model_map.py).
os.environ.setdefault("GLASSBOX_MAP_SESSIONS", "1000")

# Class mode's store (server/classroom.py): a throw-away SQLite file for this run, never
# the user's cache folder. The e2e servers inherit it, so a browser test's teacher and
# students share it with the test itself.
if "GLASSBOX_CLASS_DB" not in os.environ:
    import tempfile

    os.environ["GLASSBOX_CLASS_DB"] = os.path.join(tempfile.mkdtemp(prefix="glassbox-classes-"), "classes.sqlite3")
