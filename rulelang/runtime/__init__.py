"""Runtime: checked rules compiled once into closures, and the state they run on."""
