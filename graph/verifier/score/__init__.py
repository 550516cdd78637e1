"""The signals of a reading and the learned combiner that scores them."""
