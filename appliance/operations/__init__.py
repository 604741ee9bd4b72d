"""Operating the installation: its status at a glance (GET /installation/status), over the domains
it reports on (installation, wabas, the queue); above them in the graph, so none imports it."""
