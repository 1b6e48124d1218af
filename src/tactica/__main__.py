"""``python -m tactica``: the ``tactica`` command line."""

from tactica.launch import main

if __name__ == "__main__":
    main()
