from tests.inspections.conftest import outfall, premises  # noqa: F401 (fixtures)
