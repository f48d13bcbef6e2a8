"""Table placement and message routing across processes and hosts."""
