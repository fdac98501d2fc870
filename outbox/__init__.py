"""The outbox: the only way an e-mail leaves the system (see services.py)."""
