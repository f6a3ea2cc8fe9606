"""The project's tests, laid out like the code they test; each folder a package."""
