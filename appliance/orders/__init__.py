"""Orders: what customers send from a catalog (WhatsApp's `order` messages), with a status the team
moves and, inside the 24-hour window, tells the customer."""
