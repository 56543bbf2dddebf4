"""mjai JSON lines (Mortal and gimite dialects): reader, writer, claims and names."""
