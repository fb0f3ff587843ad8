print("rigbook")
