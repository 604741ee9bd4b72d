"""What comes from the network about messages: customers' messages and statuses recorded
(service.py, called by the inbound adapter), their media fetched (media.py), and the read marks we
send back (receipts.py)."""
