"""The messages' path (libcurl) at the edges urllib3 used to cover: a kept-alive connection that
dies after the network read a message must not send it again, and the failure must say it may
have been delivered; a call that never left says so too. A raw socket server plays the network."""

import socket
import threading

import pytest

from appliance.graph_api.client import GraphClient, GraphError

ANSWER = b'{"messages":[{"id":"wamid.first-one"}]}'
OK = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(ANSWER), ANSWER)
TEXT = {"to": "573001112233", "type": "text", "text": {"body": "hola"}}


class Network:
    """Answers the first request of each connection's plan, then reads the next and hangs up."""

    def __init__(self, answers_per_connection: int):
        self.requests: list[bytes] = []
        self.connections = 0
        self._answers = answers_per_connection
        self._socket = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._socket.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                connection, _ = self._socket.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(target=self._connection, args=(connection,), daemon=True).start()

    def _connection(self, connection):
        with connection:
            for n in range(self._answers + 1):
                request = _read_request(connection)
                if request is None:
                    return
                self.requests.append(request)
                if n < self._answers:
                    connection.sendall(OK)
            # read the request, then close without a byte of answer

    def close(self):
        self._socket.close()


def _read_request(connection) -> bytes | None:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
    while len(body) < length:
        body += connection.recv(65536)
    return head + b"\r\n\r\n" + body


@pytest.fixture
def network():
    made = []
    yield lambda answers: made.append(Network(answers)) or made[-1]
    for n in made:
        n.close()


def test_a_message_on_a_kept_alive_connection_that_dies_is_not_sent_again(network):
    net = network(1)  # answers the first message, reads the second and hangs up
    client = GraphClient(net.url, "v23.0", timeout=2)
    assert client.send_message("token", "1234", TEXT)["messages"][0]["id"].startswith("wamid.")
    with pytest.raises(GraphError) as dropped:
        client.send_message("token", "1234", {**TEXT, "text": {"body": "segundo"}})
    assert dropped.value.code == -1 and dropped.value.maybe_delivered
    assert sum(b"segundo" in r for r in net.requests) == 1  # libcurl's own resend on a fresh connection was refused


def test_a_message_the_network_read_and_never_answered_may_have_been_delivered(network):
    net = network(0)
    with pytest.raises(GraphError) as dropped:
        GraphClient(net.url, "v23.0", timeout=2).send_message("token", "1234", TEXT)
    assert dropped.value.maybe_delivered and len(net.requests) == 1


def test_a_message_that_could_not_connect_never_left():
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    with pytest.raises(GraphError) as refused:
        GraphClient(f"http://127.0.0.1:{port}", "v23.0", timeout=2).send_message("token", "1234", TEXT)
    assert refused.value.code == -1 and not refused.value.maybe_delivered and "could not be reached" in refused.value.message


def test_a_quiet_lanes_next_threads_find_the_connection_open(network):
    """A sending lane's worker threads end when its number goes quiet: the next ones reuse the
    kept-alive connection (with the real network, no new TLS handshake)."""
    net = network(10)
    client = GraphClient(net.url, "v23.0", timeout=2)
    for n in range(3):  # three threads, one after another, as three bursts' workers
        worker = threading.Thread(target=client.send_message, args=("token", "1234", TEXT))
        worker.start()
        worker.join()
    assert len(net.requests) == 3 and net.connections == 1
