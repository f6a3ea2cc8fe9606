"""Tests of app/turns/: hints, reviews, stand-ins and the computer's workers."""
