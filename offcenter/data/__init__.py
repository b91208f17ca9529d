"""Data in and out: CSV reading and checks shared by the app and the CLI, and the bundled data sets."""
