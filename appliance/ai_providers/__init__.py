"""Chat models over HTTP, three shapes behind one interface: protocol only, no appliance imports."""
