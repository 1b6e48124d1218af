"""Tests of the combat calculator: worked examples, properties, refusals."""
