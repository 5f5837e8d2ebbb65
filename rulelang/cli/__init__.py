"""The one generic command line: validate, play and simulate any rule file."""
