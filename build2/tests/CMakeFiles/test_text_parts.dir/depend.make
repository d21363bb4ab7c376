# Empty dependencies file for test_text_parts.
# This may be replaced when dependencies are built.
