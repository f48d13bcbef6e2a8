"""Tables, seats, clocks and tournaments: the actors that drive hands."""
