"""Space Aztecs (Lumberjacks Studio): piles, a simultaneous hidden card choice, Temples, Saucers."""
