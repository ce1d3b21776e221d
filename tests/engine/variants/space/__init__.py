"""Space mahjong (``seeds/000``): shapes, the seed document's hands, properties, self-play."""
