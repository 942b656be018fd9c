"""HTTP API of the Galileo Galilei game service (FastAPI)."""
