"""What is printed or drawn from the stored data: score sheets and tournament papers (PDF),
the balance chart, season reports."""
