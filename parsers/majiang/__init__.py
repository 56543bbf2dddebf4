"""kobalab majiang paipu JSON: the reader and its yaku names."""
