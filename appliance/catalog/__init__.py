"""The business's products: goods and licenses, their keys, and their push to Meta's catalog."""
