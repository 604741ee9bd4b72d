"""The permission catalog (/permissions): shipped data, the same for every organization."""
