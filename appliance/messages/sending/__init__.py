"""Sending: a message stored and queued in the request's transaction (service.py, with compose.py,
template_fill.py and rich.py checking each type), then sent after the commit: the queue's states
(queue.py), one network call and its retry policy (network.py), pacing (pacing.py), and the threads
that run them (lanes.py)."""
