"""Electronic invoices of sales (Colombia's DIAN), made by an authorized provider's API."""
