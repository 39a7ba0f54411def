"""Runs the Python module's tests with pytest (ctest's PythonModule); exit 77 (skipped) without pytest."""
import sys

try:
    import pytest
except ImportError:
    print("PythonModule: skipped: pytest is not installed (Debian's python3-pytest: scripts/install-deps.sh)")
    sys.exit(77)

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", sys.argv[1]]))
