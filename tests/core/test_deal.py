"""The dealing helpers' inlined draws: the same results as the library's, so seeded searches deal the same worlds."""

from __future__ import annotations

import random

import pytest

from ninjatable.core.deal import shuffle, weighted_choice


@pytest.mark.parametrize("size", [0, 1, 2, 3, 7, 16, 33, 64, 130])
def test_shuffle_gives_the_librarys_permutation(size):
    for seed in range(50):
        ours, theirs = list(range(size)), list(range(size))
        mine, library = random.Random(seed), random.Random(seed)
        shuffle(mine, ours)
        library.shuffle(theirs)
        assert ours == theirs
        assert mine.random() == library.random()  # the generators stay in step


def test_weighted_choice_gives_the_librarys_choice():
    population = ["hand", "pile", "scale", "other hand"]
    for seed in range(200):
        weights = [random.Random(seed).randrange(0, 12) for _ in population]
        weights[seed % 4] += 1  # never all zero
        mine, library = random.Random(seed), random.Random(seed)
        assert weighted_choice(mine, population, weights) == library.choices(population, weights=weights)[0]
        assert mine.random() == library.random()


def test_a_generator_subclass_draws_its_own_way():
    class Counting(random.Random):
        draws = 0

        def random(self):
            Counting.draws += 1
            return super().random()

    items = list(range(10))
    shuffle(Counting(1), items)
    weighted_choice(Counting(1), "ab", [1, 1])
    assert sorted(items) == list(range(10)) and Counting.draws >= 1
