"""kansa's own table: games played by seeded bots, written scenarios, the sample logs."""
