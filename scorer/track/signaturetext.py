"""How a name stands in a track's signature (``build.py``'s baseline part and
``slices.py``'s slicing part): its own module so that both take it from below
them, without the slices importing the builder that calls them."""
from __future__ import annotations


def signature_text(name: str) -> str:
    """A run name as the signature holds it: one token, the same for the same
    name, with '%', '|' (which separates the parts), spaces and characters that
    do not print written as the %XX of their UTF-8 bytes."""
    return "".join("".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass"))
                   if char in "%|" or char.isspace() or not char.isprintable() else char
                   for char in name)
