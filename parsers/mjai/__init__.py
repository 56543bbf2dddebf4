"""mjai JSON lines (Mortal and gimite dialects): reader, stream reader, writer, claims and names."""
