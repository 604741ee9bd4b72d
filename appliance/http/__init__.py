"""Flask plumbing only: the envelope, the request unit of work, authentication, errors."""
