import pytest

from tests.netsim.conftest import account, netsim_url, receiver, simulator  # noqa: F401  (fixtures)
from tests.organizations.conftest import add_member, owner  # noqa: F401  (fixtures)


@pytest.fixture
def settings(settings, netsim_url):  # noqa: F811
    """The app's Graph API is the simulator on loopback."""
    return settings.replace(graph_api_url=netsim_url, graph_timeout_seconds=2.0)
